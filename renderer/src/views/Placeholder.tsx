/** The frame of a view whose content arrives with a later capability. */
export function ViewFrame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="view" aria-labelledby="view-title">
      <h1 id="view-title">{title}</h1>
      {children}
    </section>
  );
}
