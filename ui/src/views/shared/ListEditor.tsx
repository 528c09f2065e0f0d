// A list of short texts edited item by item (a character's aliases): each item with its own
// Remove button, and a box to add one (Enter or the Add button). Items are kept whole, commas
// included, and a repeated item is not added twice.
import { useState } from "react";
import type { KeyboardEvent } from "react";

interface Props {
  /** The id of the add box; the list's test ids derive from it. */
  id: string;
  label: string;
  items: string[];
  onChange: (items: string[]) => void;
}

export function ListEditor({ id, label, items, onChange }: Props) {
  const [draft, setDraft] = useState("");
  const add = () => {
    const item = draft.trim();
    if (!item) return;
    if (!items.some((i) => i.toLowerCase() === item.toLowerCase())) onChange([...items, item]);
    setDraft("");
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the item instead of submitting the whole form.
    if (e.key === "Enter") {
      e.preventDefault();
      add();
    }
  };
  return (
    <div className="list-editor" role="group" aria-labelledby={`${id}-label`} data-testid={id}>
      {items.length > 0 && (
        <ul className="list-items">
          {items.map((item, i) => (
            <li key={`${item}:${i}`} className="list-item" data-testid={`${id}-item`}>
              <span>{item}</span>
              <button
                type="button"
                className="btn btn-small btn-quiet"
                aria-label={`Remove ${item}`}
                data-testid={`${id}-remove`}
                onClick={() => onChange(items.filter((_, j) => j !== i))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="inline-form">
        <input aria-label={`Add to ${label}`} data-testid={`${id}-new`} value={draft} onChange={(e) => setDraft(e.target.value)} onKeyDown={onKey} />
        <button type="button" className="btn btn-small btn-quiet" data-testid={`${id}-add`} disabled={!draft.trim()} onClick={add}>
          Add
        </button>
      </div>
    </div>
  );
}
