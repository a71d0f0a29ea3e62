import Link from "next/link";

/** A worker by the name the Workers page shows, linking to its row there; the id only on hover. */
export function WorkerLink({ id, name }: { id: string | null; name: string | null }) {
  if (id === null) return <>—</>;
  return (
    <Link href={`/workers#worker-${encodeURIComponent(id)}`} title={id} className="worker-link">
      {name ?? id}
    </Link>
  );
}
