import { NotFoundPage } from "@/components/not-found/not-found-page";

/** Any address the portal has no page for: HTTP 404, saying what is missing. */
export default function NotFound() {
  return <NotFoundPage kind="page" />;
}
