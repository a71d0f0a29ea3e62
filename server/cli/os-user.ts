import { userInfo } from "node:os";

/** Who runs this command, for audit rows and token names (an OS user without a passwd entry still has a uid). */
export function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? "?"}`;
  }
}
