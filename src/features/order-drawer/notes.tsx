import { useCallback, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Avatar } from '../../components/avatar.tsx';
import { Button } from '../../components/button.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import type { Note } from '../../../domain/entities.ts';
import { LIMITS } from '../../../domain/validation.ts';
import {
  useDeskActions,
  useDeskStoreApi,
  useFailure,
  useIsNotePending,
  useNotes,
  type DeskStore,
} from '../../../store/index.ts';
import { formatDateTime } from '../../lib/format.ts';

function NoteItem({ note }: { note: Note }) {
  const pending = useIsNotePending(note.id);
  return (
    <li className={`note${pending ? ' is-pending' : ''}`} data-testid="note">
      <Avatar name={note.authorName} id={note.authorId} />
      <div>
        <div className="note__meta">
          <strong>{note.authorName}</strong>
          {pending ? 'Sending…' : formatDateTime(note.createdAt)}
        </div>
        <p className="note__body">{note.body}</p>
      </div>
    </li>
  );
}

const drafts = new WeakMap<DeskStore, Map<string, string>>();

/** The keyboard shortcut, said only where there is a keyboard to use it (not on a phone). */
const SEND_HINT =
  typeof window !== 'undefined' && window.matchMedia?.('(pointer: fine)').matches
    ? 'Ctrl+Enter to send'
    : '';

/**
 * The note being written on an order, kept while the desk is open (its store: one per member), so
 * closing the drawer and opening the order again finds it as it was left.
 */
function useNoteDraft(orderId: string): [string, (body: string) => void] {
  const store = useDeskStoreApi();
  let kept = drafts.get(store);
  if (!kept) drafts.set(store, (kept = new Map()));
  const byOrder = kept;
  const [body, setBody] = useState(() => byOrder.get(orderId) ?? '');
  const set = useCallback(
    (next: string) => {
      if (next === '') byOrder.delete(orderId);
      else byOrder.set(orderId, next);
      setBody(next);
    },
    [byOrder, orderId],
  );
  return [body, set];
}

/**
 * Notes of an order, live, and a form to add one (Ctrl/⌘+Enter sends). A note is shown at once,
 * "Sending…" until the backend has it; a refused one comes back into the form with the reason.
 * Offline, nothing is sent: what is being written stays in the box until the connection is back.
 */
export function Notes({ orderId, offline }: { orderId: string; offline: boolean }) {
  const notes = useNotes(orderId);
  const { addNote } = useDeskActions();
  const error = useFailure(`notes:${orderId}`)?.error.message ?? null;
  const [body, setBody] = useNoteDraft(orderId);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (offline) return;
    const text = body;
    setBody('');
    const result = await addNote(orderId, text);
    if (!result.ok) setBody(text);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void submit();
  };

  return (
    <section className="section" aria-labelledby="notes-title">
      <h3 className="section__title" id="notes-title">
        Notes
      </h3>
      {notes === null ? (
        <LoadingState compact label="Loading notes…" />
      ) : notes.error ? (
        <ErrorState compact message={notes.error.message} />
      ) : notes.items.length === 0 ? (
        <p className="muted" style={{ fontSize: 13 }}>
          No notes yet.
        </p>
      ) : (
        <ul className="notes" aria-live="polite">
          {notes.items.map((note) => (
            <NoteItem key={note.id} note={note} />
          ))}
        </ul>
      )}
      <form className="note-form" onSubmit={(e) => void submit(e)}>
        <label className="sr-only" htmlFor="note-body">
          Add a note
        </label>
        <textarea
          id="note-body"
          className="textarea"
          placeholder="Add a note for the team…"
          value={body}
          maxLength={LIMITS.noteMax + 100}
          onChange={(e) => setBody(e.target.value)}
          onKeyDown={onKeyDown}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'note-error' : undefined}
        />
        <div className="note-form__row">
          {error ? (
            <span className="field__error" id="note-error" role="alert">
              {error}
            </span>
          ) : (
            <span>
              {offline
                ? 'Offline: notes can be sent when the connection is back.'
                : body.length > LIMITS.noteMax * 0.8
                  ? `${body.length} / ${LIMITS.noteMax}`
                  : SEND_HINT}
            </span>
          )}
          <Button type="submit" size="sm" variant="primary" disabled={offline || !body.trim()}>
            Add note
          </Button>
        </div>
      </form>
    </section>
  );
}
