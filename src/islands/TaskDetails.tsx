import type { Task } from '../console/types.ts';
import { formatTime } from '../console/format.ts';

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
    [m('version'), task.version || task.build_task?.version],
  ];
  return (
    <dl className="task-details">
      {facts.filter(([, value]) => value).map(([label, value]) => <div key={label}><dt>{label}</dt><dd>{value}</dd></div>)}
    </dl>
  );
}
