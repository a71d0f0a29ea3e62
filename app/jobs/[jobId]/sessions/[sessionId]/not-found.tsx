import { NotFoundPage } from "@/components/not-found/not-found-page";

/** A Session id that names no Session of this job: HTTP 404, saying what is missing. */
export default function NotFound() {
  return <NotFoundPage kind="session" />;
}
