export default function LoadingJob() {
  return (
    <main className="wide">
      <p className="muted" role="status">
        Loading job…
      </p>
    </main>
  );
}
