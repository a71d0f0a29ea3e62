/**
 * The account form checks the setup page and the users page make as you type: the same rules
 * the server applies (lib/farm/access: USER_NAME, passwordProblem), worded for a form. The
 * server checks again; these only save a round trip. Pure.
 */
import { passwordProblem, USER_NAME } from "@/lib/farm/access";

export interface AccountFields {
  name: string;
  password: string;
  /** The password typed again; null when the form does not ask for it. */
  confirm: string | null;
}

export type AccountProblems = Partial<Record<keyof AccountFields, string>>;

export const USER_NAME_RULE = "3 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit";

export function userNameProblem(name: string): string | null {
  return USER_NAME.test(name) ? null : `A user name is ${USER_NAME_RULE}.`;
}

/** What is wrong with the fields so far (an empty field is not reported until something is typed). */
export function accountProblems(fields: AccountFields): AccountProblems {
  const problems: AccountProblems = {};
  if (fields.name !== "") {
    const name = userNameProblem(fields.name);
    if (name) problems.name = name;
  }
  if (fields.password !== "") {
    const password = passwordProblem(fields.password, fields.name || "\u0000");
    if (password) problems.password = `${password[0]!.toUpperCase()}${password.slice(1)}.`;
  }
  if (fields.confirm !== null && fields.confirm !== "" && fields.confirm !== fields.password) problems.confirm = "The two passwords differ.";
  return problems;
}

/** Whether the form may be sent: every field filled and no problem. */
export function accountReady(fields: AccountFields): boolean {
  if (fields.name === "" || fields.password === "" || fields.confirm === "") return false;
  return Object.keys(accountProblems(fields)).length === 0;
}
