/**
 * The template JSON Schemas, published for editors such as VS Code (`yaml.schemas` /
 * `json.schemas` pointing at /schema/jobtemplate-2023-09.json). Static data: built once.
 */
import { TEMPLATE_SCHEMAS } from "@/lib/openjd";

export const dynamic = "force-static";

export function generateStaticParams() {
  return Object.keys(TEMPLATE_SCHEMAS).map((name) => ({ name }));
}

export async function GET(_request: Request, { params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  if (!Object.hasOwn(TEMPLATE_SCHEMAS, name)) {
    return Response.json({ error: `no schema ${name}; available: ${Object.keys(TEMPLATE_SCHEMAS).join(", ")}` }, { status: 404 });
  }
  return new Response(JSON.stringify(TEMPLATE_SCHEMAS[name], null, 2), {
    headers: { "content-type": "application/schema+json; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
