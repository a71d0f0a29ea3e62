import { NotFoundPage } from "@/components/not-found/not-found-page";

/** A job id that names no job: HTTP 404, saying what is missing. */
export default function NotFound() {
  return <NotFoundPage kind="job" />;
}
