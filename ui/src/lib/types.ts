// Friendly names for the generated binding types the UI reads (Rust serializes: `*_Serialize`).
import type {
  BranchRow_Serialize,
  BranchScene_Serialize,
  DiffRun,
  EntityDetail_Serialize,
  ErrorKind_Serialize,
  Finding_Serialize,
  GraphEdge_Serialize,
  HistoryItem_Serialize,
  LoopCard_Serialize,
  NovelOverview_Serialize,
  Plan_Serialize,
  ProfileRow_Serialize,
  Proposal_Serialize,
  ProposedChange,
  ProvidersView_Serialize,
  RecentNovel_Serialize,
  RewindReport_Serialize,
  RunEvent_Serialize,
  RunFailure_Serialize,
  RunReport_Serialize,
  SceneVersion_Serialize,
  SceneVersions_Serialize,
  SceneView_Serialize,
  StoryGraph_Serialize,
  TickEvent_Serialize,
  TickSummary_Serialize,
  TimelineRow_Serialize,
} from "../bindings";

export type Overview = NovelOverview_Serialize;
export type RecentNovel = RecentNovel_Serialize;
export type Scene = SceneView_Serialize;
export type Graph = StoryGraph_Serialize;
export type Edge = GraphEdge_Serialize;
export type Entity = EntityDetail_Serialize;
export type HistoryItem = HistoryItem_Serialize;
export type TimelineEntry = TimelineRow_Serialize;
export type Loop = LoopCard_Serialize;
export type Finding = Finding_Serialize;
export type Plan = Plan_Serialize;
export type Providers = ProvidersView_Serialize;
export type ProfileRow = ProfileRow_Serialize;
export type RunEvent = RunEvent_Serialize;
export type TickEvent = TickEvent_Serialize;
export type TickSummary = TickSummary_Serialize;
export type RunReport = RunReport_Serialize;
export type RunFailure = RunFailure_Serialize;
export type FailureKind = ErrorKind_Serialize;
export type Proposal = Proposal_Serialize;
export type { ProposedChange, DiffRun };
export type SceneVersion = SceneVersion_Serialize;
export type SceneVersions = SceneVersions_Serialize;
export type Branch = BranchRow_Serialize;
export type BranchScene = BranchScene_Serialize;
export type RewindReport = RewindReport_Serialize;
