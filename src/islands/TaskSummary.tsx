// The Summary tab of the task dialog: stage timings, the PLAY RECAP per host (failed and
// unreachable first) and the failed tasks with their messages. The server renders it from the
// runner API; while the tab is shown it follows the task's live store, reading the summary again
// whenever the log grew or the status changed since the last read.
import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import { formatDuration, type DurationUnits } from '../console/format.ts';
import { reloadSummary, type TaskLive } from './task-live.ts';

const COUNTS = ['ok', 'changed', 'unreachable', 'failed', 'skipped', 'rescued', 'ignored'] as const;

interface Props {
  live: TaskLive;
  lang: string;
  hidden: boolean;
  /** the clock of the dialog, for the duration of a stage still running */
  now: number;
  units: DurationUnits;
  /** the `summary` messages plus `start` */
  m: (key: string) => string;
}

export default function TaskSummary({ live, lang, hidden, now, units, m }: Props) {
  const { summary, logTick, task } = useStore(live);
  // What the shown summary was read after: the server's read at first, so opening the tab of an
  // unchanged task costs no request.
  const readAt = useRef({ logTick, status: task.status });
  useEffect(() => {
    if (hidden || (readAt.current.logTick === logTick && readAt.current.status === task.status)) return;
    readAt.current = { logTick, status: task.status };
    void reloadSummary(live, lang);
  }, [hidden, logTick, task.status, live, lang]);

  const { stages, hosts, errors } = summary;
  const stageName = (type: string) => (m(`stage_${type}`) === `stage_${type}` ? type : m(`stage_${type}`));
  return (
    <section className="task-summary" aria-label={m('tab')}>
      {stages.length === 0 ? <p className="empty">{m('empty')}</p> : (
        <>
          <h3>{m('stages')}</h3>
          <div className="overflow-auto">
            <table className="striped task-summary-stages">
              <thead><tr><th>{m('stage')}</th><th>{m('start')}</th><th>{m('duration')}</th></tr></thead>
              <tbody>
                {stages.map((stage) => (
                  <tr key={stage.id} data-stage={stage.type}>
                    <td>{stageName(stage.type)}</td>
                    <td>{stage.startText}</td>
                    <td>{formatDuration(stage.start, stage.end, units, now) || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <h3>{m('hosts')}</h3>
      {hosts.length === 0 ? <p className="empty">{m('noHosts')}</p> : (
        <div className="overflow-auto">
          <table className="striped task-summary-hosts">
            <thead><tr><th>{m('host')}</th>{COUNTS.map((name) => <th key={name}>{m(name)}</th>)}</tr></thead>
            <tbody>
              {hosts.map((host) => (
                <tr key={host.host} data-host={host.host} data-trouble={host.failed > 0 || host.unreachable > 0 ? 'yes' : undefined}>
                  <td>{host.host}</td>{COUNTS.map((name) => <td key={name}>{host[name]}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>{m('errors')}</h3>
      {errors.length === 0 ? <p className="empty">{m('noErrors')}</p> : (
        <div className="overflow-auto">
          <table className="striped task-summary-errors">
            <thead><tr><th>{m('host')}</th><th>{m('task')}</th><th>{m('message')}</th></tr></thead>
            <tbody>
              {errors.map((error) => (
                <tr key={error.id} data-error-host={error.host}><td>{error.host}</td><td>{error.task}</td><td><pre>{error.error}</pre></td></tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
