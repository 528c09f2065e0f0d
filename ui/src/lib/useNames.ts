// Characters, places and loops by id, so review mode reads "Tamsin Vale", not "C0": read from
// the graph and the loops board once per scene under review.
import { useMemo } from "react";
import { commands } from "../bindings";
import { call } from "./api";
import { useLoad } from "./useLoad";

export function useNames(tick: number | null): ReadonlyMap<string, string> {
  const graph = useLoad(`review-graph:${tick}`, () => call(commands.storyGraph()));
  const loops = useLoad(`review-loops:${tick}`, () => call(commands.loopsBoard()));
  return useMemo(() => {
    const names = new Map<string, string>();
    for (const n of graph.data?.nodes ?? []) names.set(n.id, n.label);
    for (const l of loops.data ?? []) names.set(l.id, l.description);
    return names;
  }, [graph.data, loops.data]);
}
