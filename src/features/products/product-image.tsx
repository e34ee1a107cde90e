import { useRef } from 'react';
import { Button } from '../../components/button.tsx';
import type { Product } from '../../../domain/entities.ts';
import { PRODUCT_IMAGE_RULE } from '../../../domain/files.ts';
import { BUCKETS } from '../../../domain/ids.ts';
import { useFileActions, useFileUrl, useProductImageUpload } from '../../../store/index.ts';

const ACCEPT = PRODUCT_IMAGE_RULE.extensions.map((ext) => `.${ext}`).join(',');
const THUMB = { kind: 'preview', width: 96, height: 96 } as const;

/**
 * A product's image in the catalog: its thumbnail (the storage's preview), upload or replace
 * (≤ 5 MB, checked before sending), remove; the upload's progress or refusal in place.
 */
export function ProductImage({ product, busy }: { product: Product; busy: boolean }) {
  const { setProductImage, removeProductImage, dismissUpload } = useFileActions();
  const upload = useProductImageUpload(product.id);
  const thumb = useFileUrl(BUCKETS.productImages, product.imageFileId, THUMB);
  const input = useRef<HTMLInputElement>(null);
  const uploading = upload !== null && upload.status !== 'failed';

  return (
    <div className="product-image">
      {thumb ? (
        <img
          className="product-image__thumb"
          src={thumb}
          alt={`${product.name}`}
          width={48}
          height={48}
          data-testid="product-thumb"
        />
      ) : (
        <span className="product-image__thumb product-image__thumb--empty" aria-hidden="true" />
      )}
      <span className="product-image__actions">
        <Button
          size="sm"
          variant="ghost"
          busy={uploading}
          onClick={() => input.current?.click()}
          aria-label={`${product.imageFileId ? 'Replace' : 'Upload'} the image of ${product.name}`}
        >
          {product.imageFileId ? 'Replace' : 'Upload image'}
        </Button>
        {product.imageFileId && !uploading && (
          <Button
            size="sm"
            variant="ghost"
            busy={busy}
            onClick={() => void removeProductImage(product.id)}
            aria-label={`Remove the image of ${product.name}`}
          >
            Remove
          </Button>
        )}
      </span>
      {upload?.status === 'failed' && (
        <span className="field__error" role="alert">
          {upload.error?.message}{' '}
          <button type="button" className="link-btn" onClick={() => dismissUpload(upload.id)}>
            OK
          </button>
        </span>
      )}
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-label={`Image of ${product.name}`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void setProductImage(product.id, file);
        }}
      />
    </div>
  );
}
