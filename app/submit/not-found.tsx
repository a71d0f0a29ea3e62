import { NotFoundPage } from "@/components/not-found/not-found-page";

/** `?template=<id>` naming no library template: HTTP 404, saying what is missing. */
export default function NotFound() {
  return <NotFoundPage kind="template" />;
}
