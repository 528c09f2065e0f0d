// A labelled form field with its hint and its error message beside it (`error-<name>`).
import type { ReactNode } from "react";

interface Props {
  name: string;
  label: string;
  error?: string;
  hint?: string;
  required?: boolean;
  children: (props: {
    id: string;
    name: string;
    "data-testid": string;
    "aria-invalid": boolean;
    "aria-describedby"?: string;
  }) => ReactNode;
}

export function Field({ name, label, error, hint, required, children }: Props) {
  const id = `field-${name}`;
  const describedBy = [error ? `error-${name}` : null, hint ? `hint-${name}` : null].filter(Boolean).join(" ");
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={id}>
        {label}
        {required && <span className="required" aria-hidden="true"> *</span>}
      </label>
      {children({
        id,
        name,
        "data-testid": id,
        "aria-invalid": Boolean(error),
        "aria-describedby": describedBy || undefined,
      })}
      {hint && !error && (
        <p className="field-hint" id={`hint-${name}`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`error-${name}`} data-testid={`error-${name}`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
