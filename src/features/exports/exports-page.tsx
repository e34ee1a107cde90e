import { useMemo, useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { EmptyState, ErrorAlert, LoadingState } from '../../components/states.tsx';
import { StatusChips } from '../../components/status-chips.tsx';
import type { ExportJob } from '../../../domain/entities.ts';
import type { ExportFilter } from '../../../domain/exports.ts';
import { BUCKETS } from '../../../domain/ids.ts';
import { CHOOSABLE_STATUSES } from '../../../domain/order.ts';
import {
  useConfirmedMembers,
  useExportJobs,
  useFailure,
  useFileActions,
  useFileUrl,
  useLoadState,
  useMembers,
  useRunning,
} from '../../../store/index.ts';
import { formatCount, formatDateTime } from '../../lib/format.ts';
import {
  defaultExportForm,
  describeExportFilter,
  exportFilterOf,
  type ExportForm,
} from './export-form.ts';
import { focusFirstInvalid } from '../../lib/focus-invalid.ts';

const DOWNLOAD = { kind: 'download' } as const;

/** `/exports` (manager+): start a CSV export of the orders by filter; every export of the team, live. */
export function ExportsPage() {
  const load = useLoadState();
  const jobs = useExportJobs();
  const members = useMembers();
  const nameOf = useMemo(() => {
    const names = new Map(members.map((member) => [member.userId, member.name]));
    return (userId: string) => names.get(userId) ?? 'a former member';
  }, [members]);

  return (
    <div className="page page--scroll">
      <div className="page__head">
        <h1 className="page__title">Exports</h1>
        <span className="page__sub">
          Orders as a CSV file, for managers and owners. Progress shows here as the file is written.
        </span>
      </div>
      <NewExport />
      {load.status !== 'ready' && jobs.length === 0 ? (
        <LoadingState label="Loading the exports…" />
      ) : jobs.length === 0 ? (
        <EmptyState title="No exports yet">Choose the orders above and start one.</EmptyState>
      ) : (
        <div className="list">
          <table aria-label="Exports">
            <thead>
              <tr>
                <th>Started</th>
                <th>By</th>
                <th>Orders</th>
                <th>Status</th>
                <th className="right">Rows</th>
                <th className="right">
                  <span className="sr-only">File</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <ExportRow key={job.id} job={job} nameOf={nameOf} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function ExportRow({ job, nameOf }: { job: ExportJob; nameOf: (userId: string) => string }) {
  const download = useFileUrl(BUCKETS.exports, job.status === 'done' ? job.fileId : null, DOWNLOAD);
  const working = job.status === 'queued' || job.status === 'running';
  return (
    <tr data-testid="export-row" data-status={job.status}>
      <td className="num">{formatDateTime(job.createdAt)}</td>
      <td>{nameOf(job.requestedBy)}</td>
      <td className="muted">{describeExportFilter(job.filter as Partial<ExportFilter>, nameOf)}</td>
      <td>
        <span
          className={`tag${job.status === 'done' ? ' tag--ok' : job.status === 'failed' ? ' tag--error' : ' tag--warn'}`}
        >
          {job.status === 'queued'
            ? 'waiting'
            : job.status === 'running'
              ? 'exporting'
              : job.status}
        </span>
      </td>
      <td className="right num" aria-live={working ? 'polite' : undefined}>
        {formatCount(job.rowCount)}
      </td>
      <td className="right">
        {job.status === 'done' && download ? (
          <a className="btn btn--secondary btn--sm" href={download} download>
            <span className="btn__label">Download CSV</span>
          </a>
        ) : working ? (
          <span className="spinner spinner--inline" role="status" aria-label="Exporting" />
        ) : job.status === 'failed' ? (
          <span className="field__error" role="alert">
            {job.error ?? 'The export failed.'}
          </span>
        ) : null}
      </td>
    </tr>
  );
}

function NewExport() {
  const members = useConfirmedMembers();
  const { startExport } = useFileActions();
  const running = useRunning('export:new') !== null;
  const failure = useFailure('export:new')?.error.message ?? null;
  const [form, setForm] = useState<ExportForm>(() => defaultExportForm(Date.now()));
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null);

  const toggle = (status: ExportForm['statuses'][number]) =>
    setForm((f) => ({
      ...f,
      statuses: f.statuses.includes(status)
        ? f.statuses.filter((s) => s !== status)
        : [...f.statuses, status],
    }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const filter = exportFilterOf(form);
    if ('field' in filter) {
      setProblem(filter);
      return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    }
    setProblem(null);
    await startExport(filter);
  };

  return (
    <form className="panel" onSubmit={(e) => void submit(e)} noValidate aria-label="New export">
      <h2 className="panel__title">New export</h2>
      <div className="export-form">
        <StatusChips
          id="export-statuses"
          label={
            <>
              Status <span className="muted">(none chosen: all)</span>
            </>
          }
          statuses={CHOOSABLE_STATUSES}
          chosen={form.statuses}
          onToggle={toggle}
        />
        <TextField
          label="From"
          type="date"
          value={form.from}
          onChange={(e) => setForm((f) => ({ ...f, from: e.target.value }))}
        />
        <TextField
          label="To"
          type="date"
          value={form.to}
          onChange={(e) => setForm((f) => ({ ...f, to: e.target.value }))}
          error={problem?.field === 'to' ? problem.message : null}
        />
        <div className="field">
          <label className="field__label" htmlFor="export-assignee">
            Assignee
          </label>
          <select
            id="export-assignee"
            className="select"
            value={form.assignee}
            onChange={(e) => setForm((f) => ({ ...f, assignee: e.target.value }))}
          >
            <option value="any">Anyone</option>
            <option value="none">Unassigned</option>
            {members.map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.name}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="primary" busy={running}>
          Start export
        </Button>
      </div>
      <ErrorAlert message={failure} />
    </form>
  );
}
