import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Check, Image as ImageIcon, Trash2, Undo2, X } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, toastError } from '@/lib/errors';
import { accountTypeLabel, formatAmount, formatDate, formatNumber, incidentTypeLabel } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useEvidenceUrl } from '@/features/reports/api/get-evidence-url';
import { FullReportDialog } from '@/features/reports/components/full-report-dialog';
import {
  emptyFilters,
  useModerateReports,
  useModerationLog,
  useReviewQueue,
  useUndoDecisions,
  type Decision,
  type ModerationReason,
  type QueueFilters,
  type QueueGroup,
  type QueueReport,
  type ReporterHistory,
} from '@/features/admin/api/review';
import { ReasonDialog } from '@/features/admin/components/reason-dialog';
import { RemovalQueue } from '@/features/admin/components/removal-queue';
import { Constants } from '@/types/database.types';
import { moderationReasonLabel, moderationStatusLabel } from '@/lib/moderation-reasons';

const DAY_MS = 86_400_000;

interface Pending {
  ids: string[];
  status: Exclude<Decision, 'verified'>;
}

const decidedKeys = {
  verified: 'moderation.decided.verified',
  rejected: 'moderation.decided.rejected',
  removed: 'moderation.decided.removed',
} as const satisfies Record<Decision, string>;
const askKeys = { rejected: 'moderation.ask.rejected', removed: 'moderation.ask.removed' } as const;
const confirmKeys = {
  rejected: 'moderation.confirm.rejected',
  removed: 'moderation.confirm.removed',
} as const;

// min-w-0: a select is as wide as its longest option by default, which pushed a 375 px screen sideways.
const selectClass =
  'border-input bg-background dark:bg-input/30 h-9 w-full min-w-0 rounded-md border px-2 text-sm shadow-xs focus-visible:ring-ring/50 focus-visible:ring-[3px] outline-none';

/**
 * The admins' review workspace (docs/moderation.md): pending reports grouped by identifier with the
 * identifier's verified history, each report with its evidence and its reporter's history; filters,
 * search, sorts, keyboard shortcuts, bulk decisions with one reason, and undo.
 */
export function ReviewWorkspace() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<QueueFilters>(emptyFilters);
  const queue = useReviewQueue(filters);
  const moderate = useModerateReports();
  const undo = useUndoDecisions();
  const [decided, setDecided] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [focus, setFocus] = useState(0);
  const [pending, setPending] = useState<Pending | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const [last, setLast] = useState<{ logIds: number[]; ids: string[] } | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  // Decided reports leave the view at once; the refetched queue confirms it.
  const groups = useMemo(
    () =>
      (queue.data?.groups ?? [])
        .map((g) => ({ ...g, reports: g.reports.filter((r) => !decided.has(r.id)) }))
        .filter((g) => g.reports.length > 0),
    [queue.data, decided],
  );
  const flat = useMemo(
    () => groups.flatMap((g) => g.reports.map((r) => ({ report: r, group: g }))),
    [groups],
  );
  const current = flat[Math.min(focus, flat.length - 1)] ?? null;

  useEffect(() => {
    if (!current) return;
    document
      .querySelector(`[data-report-id="${current.report.id}"]`)
      ?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [current]);

  const undoDecision = useCallback(
    (logIds: number[], ids: string[]) => {
      undo.mutate(logIds, {
        onSuccess: () => {
          setDecided((d) => new Set([...d].filter((id) => !ids.includes(id))));
          setLast(null);
          toast.success(t('moderation.undone', { count: ids.length }), { id: 'moderation-decision' });
        },
        onError: (error) => void toastError(error),
      });
    },
    [undo, t],
  );

  const decide = useCallback(
    (ids: string[], status: Decision, reason?: ModerationReason, note?: string) => {
      if (ids.length === 0) return;
      setDecided((d) => new Set([...d, ...ids]));
      setSelected((s) => new Set([...s].filter((id) => !ids.includes(id))));
      moderate.mutate(
        { ids, status, reason, note },
        {
          onSuccess: (rows) => {
            const logIds = rows.map((r) => r.id);
            setLast({ logIds, ids });
            // One toast, replaced by the next decision, so toasts never stack over the page.
            toast.success(t(decidedKeys[status], { count: ids.length }), {
              id: 'moderation-decision',
              action: { label: t('moderation.undo'), onClick: () => undoDecision(logIds, ids) },
            });
          },
          onError: (error) => {
            setDecided((d) => new Set([...d].filter((id) => !ids.includes(id))));
            void toastError(error);
          },
        },
      );
    },
    [moderate, t, undoDecision],
  );

  const ask = (ids: string[], status: Pending['status']) => ids.length > 0 && setPending({ ids, status });
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  // Keyboard: j/k or arrows move, n/p jump a group, v verify, r reject, V/R the whole group,
  // x select, e evidence, u undo, / search. Not while typing or while a dialog is open.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (pending || viewing || e.ctrlKey || e.metaKey || e.altKey) return;
      const el = e.target as HTMLElement | null;
      if (el && (el.closest('input, textarea, select, [role="dialog"]') || el.isContentEditable)) return;
      const groupIds = current ? current.group.reports.map((r) => r.id) : [];
      const targets = selected.size > 0 ? [...selected] : current ? [current.report.id] : [];
      const groupStart = (offset: number) => {
        if (!current) return;
        const gi = groups.findIndex((g) => g.identifier === current.group.identifier) + offset;
        if (gi < 0 || gi >= groups.length) return;
        setFocus(flat.findIndex((f) => f.group.identifier === groups[gi].identifier));
      };
      const handled: Record<string, () => void> = {
        j: () => setFocus((f) => Math.min(f + 1, flat.length - 1)),
        ArrowDown: () => setFocus((f) => Math.min(f + 1, flat.length - 1)),
        k: () => setFocus((f) => Math.max(f - 1, 0)),
        ArrowUp: () => setFocus((f) => Math.max(f - 1, 0)),
        n: () => groupStart(1),
        p: () => groupStart(-1),
        v: () => decide(targets, 'verified'),
        r: () => ask(targets, 'rejected'),
        d: () => ask(targets, 'removed'),
        V: () => decide(groupIds, 'verified'),
        R: () => ask(groupIds, 'rejected'),
        x: () => current && toggle(current.report.id),
        e: () => current && setViewing(current.report.id),
        u: () => last && undoDecision(last.logIds, last.ids),
        '/': () => searchRef.current?.focus(),
      };
      const action = handled[e.key];
      if (action) {
        e.preventDefault();
        action();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [pending, viewing, current, groups, flat, selected, last, decide, undoDecision]);

  const set = <K extends keyof QueueFilters>(key: K, value: QueueFilters[K]) => {
    setFilters((f) => ({ ...f, [key]: value }));
    setFocus(0);
  };

  return (
    <div className="flex min-w-0 flex-col gap-4 overflow-x-clip pb-24">
      <form
        role="search"
        // At lg the search and the sort get more room: the search's placeholder and the sort's longest
        // choice ("Pinakamaraming report") did not fit an equal share.
        className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-[minmax(0,2.1fr)_repeat(5,minmax(0,1fr))_minmax(0,1.7fr)] [&>label]:min-w-0"
        onSubmit={(e) => e.preventDefault()}
      >
        <label className="col-span-2 flex flex-col gap-1 text-xs font-medium lg:col-span-1">
          <span className="flex items-center justify-between gap-2">
            {t('moderation.filters.search')}
            {/* The "/" shortcut (listed under the keyboard shortcuts too), outside the placeholder so
                the placeholder fits. */}
            <kbd
              aria-hidden
              className="bg-muted text-muted-foreground hidden rounded border px-1.5 font-mono text-xs font-normal sm:inline"
            >
              /
            </kbd>
          </span>
          <Input
            ref={searchRef}
            type="search"
            value={filters.search}
            onChange={(e) => set('search', e.target.value)}
            placeholder={t('moderation.filters.searchPlaceholder')}
            onKeyDown={(e) => {
              // Escape leaves the box for the keyboard shortcuts and keeps the search: without
              // preventDefault, Chromium's search field would also clear itself (and the filter).
              if (e.key !== 'Escape') return;
              e.preventDefault();
              e.currentTarget.blur();
            }}
          />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium">
          {t('moderation.filters.type')}
          <select
            className={selectClass}
            value={filters.incidentType}
            onChange={(e) => set('incidentType', e.target.value as QueueFilters['incidentType'])}
          >
            <option value="">{t('moderation.filters.any')}</option>
            {Constants.public.Enums.incident_type.map((v) => (
              <option key={v} value={v}>
                {incidentTypeLabel(v)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium">
          {t('moderation.filters.accountType')}
          <select
            className={selectClass}
            value={filters.accountType}
            onChange={(e) => set('accountType', e.target.value as QueueFilters['accountType'])}
          >
            <option value="">{t('moderation.filters.any')}</option>
            {Constants.public.Enums.reported_account_type.map((v) => (
              <option key={v} value={v}>
                {accountTypeLabel(v)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium">
          {t('moderation.filters.age')}
          <select
            className={selectClass}
            value={filters.minAgeDays ?? ''}
            onChange={(e) => set('minAgeDays', e.target.value === '' ? null : Number(e.target.value))}
          >
            <option value="">{t('moderation.filters.any')}</option>
            {[1, 2, 7, 30].map((d) => (
              <option key={d} value={d}>
                {t('moderation.filters.olderThan', { count: d })}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium">
          {t('moderation.filters.evidence')}
          <select
            className={selectClass}
            value={filters.hasEvidence == null ? '' : String(filters.hasEvidence)}
            onChange={(e) => set('hasEvidence', e.target.value === '' ? null : e.target.value === 'true')}
          >
            <option value="">{t('moderation.filters.any')}</option>
            <option value="true">{t('moderation.filters.withEvidence')}</option>
            <option value="false">{t('moderation.filters.withoutEvidence')}</option>
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium">
          {t('moderation.filters.region')}
          <Input value={filters.region} onChange={(e) => set('region', e.target.value)} />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium">
          {t('moderation.filters.sort')}
          <select
            className={selectClass}
            value={filters.sort}
            onChange={(e) => set('sort', e.target.value as QueueFilters['sort'])}
          >
            <option value="oldest">{t('moderation.filters.oldest')}</option>
            <option value="most_reported">{t('moderation.filters.mostReported')}</option>
          </select>
        </label>
      </form>

      <details className="text-muted-foreground text-sm">
        <summary className="cursor-pointer">{t('moderation.keys.title')}</summary>
        <p className="mt-1">{t('moderation.keys.list')}</p>
      </details>

      {queue.isError && <p className="text-destructive">{errorMessage(queue.error)}</p>}
      {queue.isPending && <Skeleton className="h-48 w-full" />}
      {queue.data && (
        <p className="text-sm" data-testid="backlog">
          {t('moderation.backlog', {
            count: Math.max(queue.data.backlog - decided.size, 0),
            groups: groups.length,
          })}
        </p>
      )}
      {queue.data && groups.length === 0 && (
        <p className="text-muted-foreground">{t('admin.pending.empty')}</p>
      )}

      <ol className="flex flex-col gap-4">
        {groups.map((g) => (
          <GroupCard
            key={g.identifier}
            group={g}
            focusedId={current?.report.id ?? null}
            selected={selected}
            onFocus={(id) => setFocus(flat.findIndex((f) => f.report.id === id))}
            onToggle={toggle}
            onDecide={decide}
            onAsk={ask}
            onView={setViewing}
          />
        ))}
      </ol>

      {selected.size > 0 && (
        <div className="bg-background/95 fixed inset-x-0 bottom-0 z-40 border-t p-3 shadow-lg backdrop-blur">
          <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-2">
            <span className="mr-auto text-sm font-medium">
              {t('moderation.selected', { count: selected.size })}
            </span>
            <Button size="sm" onClick={() => decide([...selected], 'verified')}>
              <Check aria-hidden />
              {t('moderation.verify')}
            </Button>
            <Button size="sm" variant="destructive" onClick={() => ask([...selected], 'rejected')}>
              <X aria-hidden />
              {t('moderation.reject')}
            </Button>
            <Button size="sm" variant="outline" onClick={() => setSelected(new Set())}>
              {t('moderation.clearSelection')}
            </Button>
          </div>
        </div>
      )}

      <RemovalQueue />
      <ModerationLog />

      {pending && (
        <ReasonDialog
          open
          title={pending ? t(askKeys[pending.status], { count: pending.ids.length }) : ''}
          description={t('moderation.ask.description')}
          confirmLabel={pending ? t(confirmKeys[pending.status], { count: pending.ids.length }) : ''}
          busy={moderate.isPending}
          onCancel={() => setPending(null)}
          onConfirm={(reason, note) => {
            if (pending) decide(pending.ids, pending.status, reason, note);
            setPending(null);
          }}
        />
      )}
      <FullReportDialog
        reportId={viewing}
        onClose={() => setViewing(null)}
        actions={
          viewing && (
            // Decisions from inside the detail view: the dialog closes and the decision goes as from the list.
            <>
              <Button
                size="sm"
                onClick={() => {
                  setViewing(null);
                  decide([viewing], 'verified');
                }}
              >
                <Check aria-hidden />
                {t('moderation.verify')}
              </Button>
              <Button
                size="sm"
                variant="destructive"
                onClick={() => {
                  setViewing(null);
                  ask([viewing], 'rejected');
                }}
              >
                <X aria-hidden />
                {t('moderation.reject')}
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() => {
                  setViewing(null);
                  ask([viewing], 'removed');
                }}
              >
                <Trash2 aria-hidden />
                {t('moderation.remove')}
              </Button>
            </>
          )
        }
      />
    </div>
  );
}

function GroupCard({
  group,
  focusedId,
  selected,
  onFocus,
  onToggle,
  onDecide,
  onAsk,
  onView,
}: {
  group: QueueGroup;
  focusedId: string | null;
  selected: Set<string>;
  onFocus: (id: string) => void;
  onToggle: (id: string) => void;
  onDecide: (ids: string[], status: Decision) => void;
  onAsk: (ids: string[], status: Pending['status']) => void;
  onView: (id: string) => void;
}) {
  const { t } = useTranslation();
  const ids = group.reports.map((r) => r.id);
  const kind = group.reports[0]?.reported_account_type;
  return (
    <li className="bg-card rounded-lg border" aria-label={group.identifier}>
      <header className="flex flex-wrap items-start justify-between gap-2 border-b p-3">
        <div className="min-w-0">
          <h2 className="font-semibold break-all">
            {kind ? `${accountTypeLabel(kind)}: ` : ''}
            {group.identifier}
          </h2>
          <p className="text-muted-foreground text-xs">
            {t('moderation.groupCounts', {
              pending: group.reports.length,
              verified: group.verified_count,
              visible: group.report_count,
            })}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="secondary" onClick={() => onDecide(ids, 'verified')}>
            <Check aria-hidden />
            {t('moderation.verifyAll', { count: ids.length })}
          </Button>
          <Button size="sm" variant="outline" onClick={() => onAsk(ids, 'rejected')}>
            <X aria-hidden />
            {t('moderation.rejectAll', { count: ids.length })}
          </Button>
        </div>
      </header>
      {group.verified.length > 0 && (
        <details className="border-b px-3 py-2 text-sm">
          <summary className="cursor-pointer">
            {t('moderation.verifiedHistory', { count: group.verified_count })}
          </summary>
          <ul className="mt-2 flex flex-col gap-1">
            {group.verified.map((v) => (
              <li key={v.id} className="text-muted-foreground">
                {formatDate(v.created_at)} · {incidentTypeLabel(v.incident_type)}
                {v.incident_description ? ` · ${v.incident_description}` : ''}
              </li>
            ))}
          </ul>
        </details>
      )}
      <ul className="divide-y">
        {group.reports.map((r) => (
          <ReportItem
            key={r.id}
            report={r}
            focused={r.id === focusedId}
            selected={selected.has(r.id)}
            onFocus={() => onFocus(r.id)}
            onToggle={() => onToggle(r.id)}
            onVerify={() => onDecide([r.id], 'verified')}
            onReject={() => onAsk([r.id], 'rejected')}
            onRemove={() => onAsk([r.id], 'removed')}
            onView={() => onView(r.id)}
          />
        ))}
      </ul>
    </li>
  );
}

function ReportItem({
  report: r,
  focused,
  selected,
  onFocus,
  onToggle,
  onVerify,
  onReject,
  onRemove,
  onView,
}: {
  report: QueueReport;
  focused: boolean;
  selected: boolean;
  onFocus: () => void;
  onToggle: () => void;
  onVerify: () => void;
  onReject: () => void;
  onRemove: () => void;
  onView: () => void;
}) {
  const { t } = useTranslation();
  const evidence = useEvidenceUrl(r.evidence_path);
  return (
    <li
      data-report-id={r.id}
      aria-current={focused ? 'true' : undefined}
      onClick={onFocus}
      className={cn(
        'flex flex-col gap-3 p-3 sm:flex-row',
        focused && 'bg-muted/60 ring-primary ring-2 ring-inset',
      )}
    >
      <div className="flex items-start gap-3 sm:w-8">
        <input
          type="checkbox"
          checked={selected}
          onChange={onToggle}
          onClick={(e) => e.stopPropagation()}
          aria-label={t('moderation.selectReport', { account: r.reported_account })}
          className="accent-primary mt-1 size-4"
        />
      </div>
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-medium">
          {incidentTypeLabel(r.incident_type)} · {r.reported_account} ·{' '}
          <span className="text-muted-foreground font-normal">
            {t('moderation.filedOn', { date: formatDate(r.created_at) })}
          </span>
        </p>
        <p className="mt-1 whitespace-pre-wrap">
          {r.incident_description || t('admin.pending.noDescription')}
        </p>
        <p className="text-muted-foreground mt-1 text-xs">
          {r.location || t('admin.pending.noLocation')}
          {r.amount_lost != null && t('admin.pending.lost', { amount: formatAmount(r.amount_lost) })}
          {' · '}
          {t('moderation.incidentOn', { date: formatDate(r.incident_date) })}
        </p>
        <Reporter history={r.reporter} signal={r.signal} />
      </div>
      <div className="flex flex-row flex-wrap items-start gap-2 sm:w-56 sm:flex-col sm:items-stretch">
        {r.evidence_path &&
          (evidence.data ? (
            <button
              type="button"
              onClick={onView}
              className="block"
              aria-label={t('moderation.openEvidence')}
            >
              <img
                src={evidence.data}
                alt={t('reports.full.evidence')}
                className="h-20 w-28 rounded border object-cover sm:h-28 sm:w-full"
              />
            </button>
          ) : (
            <Button size="sm" variant="outline" onClick={onView}>
              <ImageIcon aria-hidden />
              {t('moderation.openEvidence')}
            </Button>
          ))}
        <Button
          size="sm"
          onClick={onVerify}
          aria-label={t('admin.pending.verifyLabel', { account: r.reported_account })}
        >
          <Check aria-hidden />
          {t('moderation.verify')}
        </Button>
        <Button
          size="sm"
          variant="destructive"
          onClick={onReject}
          aria-label={t('admin.pending.rejectLabel', { account: r.reported_account })}
        >
          <X aria-hidden />
          {t('moderation.reject')}
        </Button>
        <Button size="sm" variant="outline" onClick={onRemove}>
          <Trash2 aria-hidden />
          {t('moderation.remove')}
        </Button>
        <Button size="sm" variant="ghost" onClick={onView}>
          {t('admin.pending.view')}
        </Button>
      </div>
    </li>
  );
}

/** The reporter's history and issue 27's signals (young account, shared network): a signal, not a block. */
function Reporter({ history, signal }: { history: ReporterHistory; signal: QueueReport['signal'] }) {
  const { t } = useTranslation();
  const [now] = useState(() => Date.now());
  if (!history)
    return <p className="text-muted-foreground mt-1 text-xs">{t('moderation.reporter.unknown')}</p>;
  const decidedCount = history.verified + history.rejected + history.removed;
  const share = (n: number) => (decidedCount === 0 ? '—' : `${Math.round((n / decidedCount) * 100)}%`);
  const ageDays = history.account_created_at
    ? Math.floor((now - Date.parse(history.account_created_at)) / DAY_MS)
    : null;
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs" data-testid="reporter-history">
      <span>
        {t('moderation.reporter.summary', {
          filed: history.filed,
          verified: share(history.verified),
          rejected: share(history.rejected),
        })}
      </span>
      {ageDays != null && <span>· {t('moderation.reporter.age', { count: ageDays })}</span>}
      {signal?.young_account && (
        <Badge variant="outline" className="border-amber-500 text-amber-700 dark:text-amber-300">
          {t('admin.pending.youngAccount')}
        </Badge>
      )}
      {signal && signal.shared_network_reporters > 0 && (
        <Badge variant="outline" className="border-amber-500 text-amber-700 dark:text-amber-300">
          {t('admin.pending.sharedNetwork', { count: signal.shared_network_reporters })}
        </Badge>
      )}
      {history.banned && <Badge variant="destructive">{t('moderation.reporter.suspended')}</Badge>}
    </p>
  );
}

/** The latest entries of the audit log, with undo for decisions that can still be taken back. */
function ModerationLog() {
  const { t } = useTranslation();
  const log = useModerationLog();
  const undo = useUndoDecisions();
  const [now] = useState(() => Date.now());
  return (
    <section className="mt-6" aria-labelledby="moderation-log">
      <h2 id="moderation-log" className="mb-2 text-lg font-semibold">
        {t('moderation.log.title')}
      </h2>
      <p className="text-muted-foreground mb-2 text-sm">{t('moderation.log.description')}</p>
      {log.isError && <p className="text-destructive">{errorMessage(log.error)}</p>}
      {log.data && log.data.length === 0 && (
        <p className="text-muted-foreground text-sm">{t('moderation.log.empty')}</p>
      )}
      <ul className="divide-y rounded-md border text-sm">
        {log.data?.map((e) => (
          <li key={e.id} className="flex flex-wrap items-center gap-2 p-2">
            <span className="text-muted-foreground w-full text-xs sm:w-36">
              {new Date(e.created_at).toLocaleString()}
            </span>
            {/* wrap-anywhere: long e-mails break where they must, words stay whole (at 375 px). */}
            <span className="min-w-0 flex-1 wrap-anywhere">
              {t('moderation.log.entry', {
                who: e.actor_email ?? t('moderation.log.system'),
                identifier: e.identifier,
                from: moderationStatusLabel(e.from_status),
                to: moderationStatusLabel(e.to_status),
              })}
              {e.reason && ` · ${moderationReasonLabel(e.reason)}`}
              {e.undo_of != null && ` · ${t('moderation.log.undoOf', { id: e.undo_of })}`}
            </span>
            <span className="text-muted-foreground text-xs">#{formatNumber(e.id)}</span>
            {e.undone_by_log_id != null ? (
              <Badge variant="secondary">{t('moderation.log.undone')}</Badge>
            ) : (
              e.undo_of == null &&
              now - Date.parse(e.created_at) < 7 * DAY_MS && (
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={undo.isPending}
                  onClick={() => undo.mutate([e.id], { onError: (err) => void toastError(err) })}
                >
                  <Undo2 aria-hidden />
                  {t('moderation.undo')}
                </Button>
              )
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
