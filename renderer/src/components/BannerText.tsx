/**
 * A banner's words: the lead sentence always, the rest after it in a roomy window. In a short one (a laptop
 * at 200% zoom) the rest waits behind "Why?", so the banner keeps to one line and the queue keeps its rows.
 * Both copies are in the page; CSS shows one (compact.css), and what is not displayed is not read out.
 */
export function BannerText({ lead, more }: { lead: string; more: string }) {
  return (
    <div className="banner-text">
      <p>
        {lead}
        <span className="banner-more"> {more}</span>
      </p>
      <details className="banner-why">
        <summary>Why?</summary>
        <p>{more}</p>
      </details>
    </div>
  );
}
