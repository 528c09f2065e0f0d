// The folder a new novel is kept in (New novel and Import): typed, or chosen with the
// system's folder dialog through Browse…. The novel gets a folder of its own inside it.
import { Field } from "../../components/Field";
import { Icon } from "../../components/Icon";
import { chooseFolder } from "../../lib/dialogs";

interface Props {
  value: string;
  error?: string;
  onChange: (dir: string) => void;
}

export function ParentFolderField({ value, error, onChange }: Props) {
  const browse = async () => {
    const dir = await chooseFolder("Choose the folder to keep the novel in").catch(() => null);
    if (dir) onChange(dir);
  };
  return (
    <Field name="parent_dir" label="Folder" error={error} required hint="The novel gets a folder of its own inside this one.">
      {(props) => (
        <div className="input-with-button">
          <input {...props} type="text" value={value} placeholder="/home/you/Novels" onChange={(e) => onChange(e.target.value)} />
          <button type="button" className="btn btn-quiet" data-testid="browse-parent" onClick={() => void browse()}>
            <Icon name="folder" /> Browse…
          </button>
        </div>
      )}
    </Field>
  );
}
