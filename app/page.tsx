import { TemplateCheck } from "@/components/template-check";

export default function HomePage() {
  return (
    <main>
      <h1>Loom</h1>
      <p className="lead">
        An Open Job Description render and compute farm. The submission portal, dashboards and worker pools arrive
        with the next milestones; the template model they rest on is here. Paste a job or environment template to
        validate it with the same code the server and the <code>loom</code> command use.
      </p>
      <TemplateCheck />
    </main>
  );
}
