// The branch a view shows, beside its heading: every view reads the story of one branch.
import { useNovel } from "../lib/novel";
import { Icon } from "./Icon";

export function BranchTag() {
  const { overview } = useNovel();
  if (!overview) return null;
  return (
    <span className="branch-tag" data-testid="view-branch" title="The branch this view shows; change it in the header">
      <Icon name="branch" size={14} />
      {overview.branch}
    </span>
  );
}
