import { redirect } from "next/navigation";

/** Home is the farm's overview (one address for it: /overview, which the navigation marks). */
export default function HomePage() {
  redirect("/overview");
}
