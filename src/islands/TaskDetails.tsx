import { useEffect, useState } from 'react';
import type { Task } from '../console/types.ts';
import { formatTime } from '../console/format.ts';

interface Outputs { outputs: Record<string, unknown>; not_captured: { name: string; reason: string }[] }

interface Props { task: Task; templateName: string; templateHref: string; author: string; groupNames: string[]; lang: string; m: (key: string) => string }

/** The Details tab of the task log dialog: every fact of the task that the header leaves out. */
export default function TaskDetails({ task, templateName, templateHref, author, groupNames, lang, m }: Props) {
  const facts: [string, React.ReactNode][] = [
    [m('template'), <a href={templateHref}>{templateName}</a>],
    [m('author'), author],
    [m('started'), formatTime(task.start, lang)],
    [m('message'), task.message],
    [m('commitMessage'), task.commit_message],
    [m('commit'), task.commit_hash ? <code>{task.commit_hash.slice(0, 10)}</code> : null],
    [m('branch'), task.git_branch],
    [m('variableGroups'), groupNames.join(' → ')],
    [m('containerImage'), task.executor_image ? <code>{task.executor_image}</code> : null],
    [m('version'), task.version || task.build_task?.version],
  ];
  return (
    <>
      <dl className="task-details">
        {facts.filter(([, value]) => value).map(([label, value]) => <div key={label}><dt>{label}</dt><dd>{value}</dd></div>)}
      </dl>
      <TaskOutputs task={task} m={m} />
    </>
  );
}

/** The outputs a workflow task produced, and what was not captured: read once the tab shows. */
function TaskOutputs({ task, m }: { task: Task; m: (key: string) => string }) {
  const [data, setData] = useState<Outputs | null>(null);
  useEffect(() => {
    void fetch(`/api/project/${task.project_id}/tasks/${task.id}/outputs`).then((r) => (r.ok ? r.json() : null)).then(setData, () => setData(null));
  }, [task.project_id, task.id]);
  const names = Object.keys(data?.outputs ?? {});
  if (!data || (!names.length && !data.not_captured.length)) return null;
  return (
    <section className="task-outputs">
      <h3>{m('outputs')}</h3>
      <table>
        <thead><tr><th scope="col">{m('outputName')}</th><th scope="col">{m('outputValue')}</th></tr></thead>
        <tbody>
          {names.map((name) => <tr key={name}><td><code>{name}</code></td><td><code>{JSON.stringify(data.outputs[name])}</code></td></tr>)}
          {data.not_captured.map((n) => <tr key={`nc-${n.name}`}><td><code>{n.name}</code></td><td>{m('notCaptured')}: {n.reason}</td></tr>)}
        </tbody>
      </table>
    </section>
  );
}
