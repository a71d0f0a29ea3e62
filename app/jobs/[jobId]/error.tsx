"use client";

import Link from "next/link";

export default function JobError({ error, reset }: { error: Error; reset: () => void }) {
  return (
    <main className="wide">
      <h1>This job could not be shown</h1>
      <p role="alert" className="error-text">
        {error.message}
      </p>
      <div className="toolbar">
        <button type="button" onClick={reset}>
          Try again
        </button>
        <Link href="/jobs">Back to jobs</Link>
      </div>
    </main>
  );
}
