/** Placeholder for a screen that a later issue builds. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <section className="card coming-soon">
      <span className="badge-soon">Coming soon</span>
      <h2>{title}</h2>
      <p className="muted">This screen is coming in a later release.</p>
    </section>
  );
}
