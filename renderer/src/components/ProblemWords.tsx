import { sentence } from '../../../shared/format';

/** A problem in words, then what to do about it: two sentences (the contract's words carry no closing stop). */
export function ProblemWords({ message, remedy }: { message: string; remedy?: string | undefined }) {
  if (!remedy) return <>{message}</>;
  return (
    <>
      {sentence(message)}
      <span className="remedy"> {remedy}</span>
    </>
  );
}
