// Renders untrusted prose as text paragraphs: React text nodes only, never HTML.
import { paragraphs } from "../lib/prose";

export function Prose({ text, testId, className = "" }: { text: string; testId?: string; className?: string }) {
  return (
    <div className={`prose ${className}`} data-testid={testId}>
      {paragraphs(text).map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </div>
  );
}
