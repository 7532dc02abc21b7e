/** Placeholder until the desktop UI issue: the queue, drop zone and language picker land here. */
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 32 }}>
      <h1>Dubdesk</h1>
      <p>
        The desktop queue is on its way. Meanwhile the same engine runs from the command line:{' '}
        <code>npx dubdesk --help</code>.
      </p>
    </main>
  );
}
