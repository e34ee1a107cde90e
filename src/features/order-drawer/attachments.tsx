import { useRef, useState, type DragEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import type { Attachment } from '../../../domain/entities.ts';
import {
  ATTACHMENT_RULE,
  extensionOf,
  formatBytes,
  hasImagePreview,
} from '../../../domain/files.ts';
import { BUCKETS } from '../../../domain/ids.ts';
import type { Actor } from '../../../domain/order-machine.ts';
import { hasAtLeast } from '../../../domain/roles.ts';
import {
  useAttachments,
  useFailure,
  useFileActions,
  useFileUrl,
  useOrderUploads,
  useRunning,
  type UploadState,
} from '../../../store/index.ts';

const ACCEPT = ATTACHMENT_RULE.extensions.map((ext) => `.${ext}`).join(',');
const THUMB = { kind: 'preview', width: 96, height: 96 } as const;
const DOWNLOAD = { kind: 'download' } as const;

/**
 * An order's attachments, live: thumbnails of images, download links, remove; files dropped or
 * chosen are checked, uploaded with a progress bar (cancel, try again) and attached.
 */
export function Attachments({
  orderId,
  actor,
  offline,
}: {
  orderId: string;
  actor: Actor;
  offline: boolean;
}) {
  const attachments = useAttachments(orderId);
  const uploads = useOrderUploads(orderId);
  const { uploadAttachments } = useFileActions();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const shown = attachments?.items.filter((attachment) => !attachment.deleted) ?? [];

  const add = (files: FileList | null) => {
    if (files && files.length > 0) uploadAttachments(orderId, [...files]);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!offline) add(event.dataTransfer.files);
  };

  return (
    <section className="section" aria-labelledby="attachments-title">
      <h3 className="section__title" id="attachments-title">
        Attachments
      </h3>
      {attachments === null ? (
        <LoadingState compact label="Loading attachments…" />
      ) : attachments.error ? (
        <ErrorState compact message={attachments.error.message} />
      ) : (
        shown.length > 0 && (
          <ul className="files" aria-label="Attached files" data-testid="attachments">
            {shown.map((attachment) => (
              <AttachmentItem key={attachment.id} attachment={attachment} actor={actor} />
            ))}
          </ul>
        )
      )}
      {uploads.length > 0 && (
        <ul className="files" aria-label="Uploads" aria-live="polite">
          {uploads.map((upload) => (
            <UploadItem key={upload.id} upload={upload} />
          ))}
        </ul>
      )}
      <div
        className={`dropzone${dragging ? ' is-dragging' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(!offline);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="dropzone"
      >
        <span>{offline ? 'Uploads are back when the connection is.' : 'Drop files here, or'}</span>
        <Button size="sm" disabled={offline} onClick={() => input.current?.click()}>
          Choose files
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          className="sr-only"
          tabIndex={-1}
          aria-label="Attach files"
          onChange={(event) => {
            add(event.target.files);
            event.target.value = '';
          }}
        />
        <span className="dropzone__hint">Images, PDF or text, up to 50 MB.</span>
      </div>
    </section>
  );
}

function AttachmentItem({ attachment, actor }: { attachment: Attachment; actor: Actor }) {
  const { removeAttachment } = useFileActions();
  const target = `attachment:${attachment.id}` as const;
  const removing = useRunning(target) !== null;
  const error = useFailure(target)?.error.message ?? null;
  const image = hasImagePreview(attachment.mimeType);
  const thumb = useFileUrl(BUCKETS.attachments, image ? attachment.fileId : null, THUMB);
  const download = useFileUrl(BUCKETS.attachments, attachment.fileId, DOWNLOAD);
  const mayRemove = attachment.uploadedBy === actor.id || hasAtLeast(actor.role, 'manager');
  return (
    <li className="file" data-testid="attachment">
      {image ? (
        <img className="file__thumb" src={thumb} alt="" width={48} height={48} loading="lazy" />
      ) : (
        <span className="file__thumb file__thumb--type" aria-hidden="true">
          {extensionOf(attachment.name).toUpperCase() || 'FILE'}
        </span>
      )}
      <span className="file__main">
        <a className="file__name" href={download} download={attachment.name}>
          {attachment.name}
        </a>
        <span className="file__meta">
          {error ? (
            <span className="field__error" role="alert">
              {error}
            </span>
          ) : (
            formatBytes(attachment.sizeBytes)
          )}
        </span>
      </span>
      {mayRemove && (
        <Button
          size="sm"
          variant="ghost"
          busy={removing}
          onClick={() => void removeAttachment(attachment.id)}
          aria-label={`Remove ${attachment.name}`}
        >
          Remove
        </Button>
      )}
    </li>
  );
}

const STATUS_TEXT: Record<Exclude<UploadState['status'], 'failed'>, string> = {
  uploading: 'Uploading',
  attaching: 'Attaching…',
  canceling: 'Canceling…',
};

function UploadItem({ upload }: { upload: UploadState }) {
  const { cancelUpload, retryUpload, dismissUpload } = useFileActions();
  const percent = upload.progress === null ? null : Math.round(upload.progress * 100);
  const failed = upload.status === 'failed';
  return (
    <li className={`file file--upload${failed ? ' is-failed' : ''}`} data-testid="upload">
      <span className="file__thumb file__thumb--type" aria-hidden="true">
        {extensionOf(upload.name).toUpperCase() || 'FILE'}
      </span>
      <span className="file__main">
        <span className="file__name">{upload.name}</span>
        {failed ? (
          <span className="field__error" role="alert">
            {upload.error?.message ?? 'The upload failed.'}
          </span>
        ) : (
          <>
            <span
              className={`progress${percent === null ? ' progress--waiting' : ''}`}
              role="progressbar"
              aria-label={`Uploading ${upload.name}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent ?? undefined}
            >
              <span className="progress__bar" style={{ width: `${percent ?? 100}%` }} />
            </span>
            <span className="file__meta">
              {upload.status === 'uploading'
                ? `${STATUS_TEXT.uploading} ${percent === null ? '' : `${percent}% of `}${formatBytes(upload.sizeBytes)}`
                : STATUS_TEXT[upload.status as Exclude<UploadState['status'], 'failed'>]}
            </span>
          </>
        )}
      </span>
      {upload.status === 'uploading' && (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => void cancelUpload(upload.id)}
          aria-label={`Cancel ${upload.name}`}
        >
          Cancel
        </Button>
      )}
      {failed && (
        <span className="row-actions">
          {upload.retry !== null && (
            <Button size="sm" onClick={() => retryUpload(upload.id)}>
              Try again
            </Button>
          )}
          <Button
            size="sm"
            variant="ghost"
            onClick={() => dismissUpload(upload.id)}
            aria-label={`Dismiss ${upload.name}`}
          >
            Dismiss
          </Button>
        </span>
      )}
    </li>
  );
}
