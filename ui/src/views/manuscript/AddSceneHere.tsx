// A new scene between two scenes: the writer chooses who writes it — themselves, in the prose
// editor (NewSceneForm), or the agent, from their note (AgentSceneForm).
import { useState } from "react";
import type { Place, Shaped_Serialize as Shaped } from "../../bindings";
import { AgentSceneForm } from "./AgentSceneForm";
import { NewSceneForm } from "./NewSceneForm";

interface Props {
  /** The number the new scene will have. */
  number: number;
  place: Place;
  /** The place is the end of the book. */
  atEnd: boolean;
  onAdd: (title: string, prose: string) => Promise<void>;
  onWritten: (shaped: Shaped) => void;
  onCancel: () => void;
  onAskAgent: () => void;
}

export function AddSceneHere({ number, place, atEnd, onAdd, onWritten, onCancel, onAskAgent }: Props) {
  const [byAgent, setByAgent] = useState(false);
  const choice = (agent: boolean, label: string, testid: string) => (
    <button type="button" role="radio" aria-checked={byAgent === agent} className={byAgent === agent ? "on" : ""} data-testid={testid} onClick={() => setByAgent(agent)}>
      {label}
    </button>
  );
  return (
    <div className="add-scene-choice" data-testid="add-scene-choice">
      <div className="segmented" role="radiogroup" aria-label={`Who writes scene ${number}`}>
        {choice(false, "Write it myself", "write-it-myself")}
        {choice(true, "Ask the agent to write it from a note", "agent-writes-it")}
      </div>
      {byAgent ? (
        <AgentSceneForm number={number} place={place} onWritten={onWritten} onCancel={onCancel} />
      ) : (
        <NewSceneForm number={number} atEnd={atEnd} onAdd={onAdd} onCancel={onCancel} onAskAgent={onAskAgent} />
      )}
    </div>
  );
}
