import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { EmptyState, ErrorAlert, ErrorState, LoadingState } from '../../components/states.tsx';
import type { Product } from '../../../domain/entities.ts';
import {
  useDeskActions,
  useLatestFailure,
  useLoadState,
  useProducts,
  useRunningWrites,
} from '../../../store/index.ts';
import { amountInput } from '../../lib/amount-input.ts';
import { EMPTY_DRAFT, validateDraft, type Draft } from './product-draft.ts';
import { ProductImage } from './product-image.tsx';
import { focusFirstInvalid } from '../../lib/focus-invalid.ts';
import { useFocusWithin } from '../../lib/use-focus-within.ts';
import { formatPrice } from '../../lib/format.ts';

/** `/products` (manager+): the catalog — create, edit, deactivate; product images. */
export function ProductsPage() {
  const load = useLoadState();
  const products = useProducts();
  const running = useRunningWrites();
  const actionError = useLatestFailure('product:')?.error.message ?? null;
  const { saveProduct, setProductActive } = useDeskActions();
  const [editing, setEditing] = useState<string | null>(null);
  // Closing an edit form gives the keyboard back to its row's Edit button.
  const [returnTo, setReturnTo] = useState<string | null>(null);
  const stopEditing = (id: string) => {
    setEditing(null);
    setReturnTo(id);
  };

  const save = async (id: string | null, draft: Draft, cents: number) => {
    const result = await saveProduct(id, {
      name: draft.name,
      description: draft.description,
      priceCents: cents,
    });
    if (result.ok && id !== null) stopEditing(id);
    return result.ok;
  };

  const toggleActive = (product: Product) => setProductActive(product.id, !product.active);
  const busy = (id: string) => running[`product:${id}`] !== undefined;

  return (
    <div className="page page--scroll">
      <div className="page__head">
        <h1 className="page__title">Products</h1>
        <span className="page__sub">
          What customers can order. Images up to 5 MB: JPEG, PNG, GIF or WebP.
        </span>
      </div>
      <ProductForm
        title="Add a product"
        busy={busy('new')}
        onSave={(draft, cents) => save(null, draft, cents)}
      />
      <ErrorAlert message={actionError} />
      {load.status === 'error' && products.length === 0 ? (
        <ErrorState message={load.error?.message ?? 'Something went wrong.'} />
      ) : load.status !== 'ready' ? (
        <LoadingState label="Loading the catalog…" />
      ) : products.length === 0 ? (
        <EmptyState title="No products yet">Add the first one above.</EmptyState>
      ) : (
        <div className="list">
          <table aria-label="Products">
            <thead>
              <tr>
                <th>Image</th>
                <th>Name</th>
                <th>Description</th>
                <th className="right">Price</th>
                <th>Status</th>
                <th className="right">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {products.map((product) =>
                editing === product.id ? (
                  <tr key={product.id}>
                    <td colSpan={6}>
                      <ProductForm
                        title={`Edit ${product.name}`}
                        initial={{
                          name: product.name,
                          description: product.description,
                          price: amountInput(product.priceCents),
                        }}
                        busy={busy(product.id)}
                        onSave={(draft, cents) => save(product.id, draft, cents)}
                        onCancel={() => stopEditing(product.id)}
                      />
                    </td>
                  </tr>
                ) : (
                  <tr key={product.id} data-testid="product-row">
                    <td>
                      <ProductImage product={product} busy={busy(product.id)} />
                    </td>
                    <td style={{ fontWeight: 600 }}>{product.name}</td>
                    <td className="muted">{product.description}</td>
                    <td className="right num">
                      {formatPrice(product.priceCents, product.currency)}
                    </td>
                    <td>
                      {product.active ? (
                        <span className="tag tag--ok">active</span>
                      ) : (
                        <span className="tag">inactive</span>
                      )}
                    </td>
                    <td className="right">
                      <RowActions
                        product={product}
                        busy={busy(product.id)}
                        focusEdit={returnTo === product.id}
                        onEdit={() => setEditing(product.id)}
                        onToggle={() => void toggleActive(product)}
                      />
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/**
 * A product row's Edit and Deactivate/Activate. The keyboard stays on the toggle while it is busy
 * (`useFocusWithin`), and `focusEdit` puts it on Edit as the row comes back from its edit form.
 */
function RowActions({
  product,
  busy,
  focusEdit,
  onEdit,
  onToggle,
}: {
  product: Product;
  busy: boolean;
  focusEdit: boolean;
  onEdit: () => void;
  onToggle: () => void;
}) {
  const group = useRef<HTMLSpanElement>(null);
  useFocusWithin(group);
  const edit = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusEdit) edit.current?.focus();
  }, [focusEdit]);
  return (
    <span ref={group} className="row-actions" style={{ justifyContent: 'flex-end' }}>
      <Button size="sm" ref={edit} onClick={onEdit} aria-label={`Edit ${product.name}`}>
        Edit
      </Button>
      <Button
        size="sm"
        variant={product.active ? 'danger' : 'secondary'}
        busy={busy}
        onClick={onToggle}
        aria-label={`${product.active ? 'Deactivate' : 'Activate'} ${product.name}`}
        data-autofocus
      >
        {product.active ? 'Deactivate' : 'Activate'}
      </Button>
    </span>
  );
}

function ProductForm({
  title,
  initial = EMPTY_DRAFT,
  busy,
  onSave,
  onCancel,
}: {
  title: string;
  initial?: Draft;
  busy: boolean;
  onSave: (draft: Draft, cents: number) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const [added, setAdded] = useState<string | null>(null);
  const set = (key: keyof Draft) => (e: { target: { value: string } }) => {
    setAdded(null);
    setDraft((d) => ({ ...d, [key]: e.target.value }));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAdded(null);
    const result = validateDraft(draft);
    setErrors(result.errors);
    if (Object.keys(result.errors).length || result.cents === null)
      return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    if (!(await onSave(draft, result.cents)) || onCancel) return;
    setDraft(EMPTY_DRAFT);
    setAdded(`${draft.name.trim()} is in the catalog.`);
  };
  return (
    <form
      className="panel"
      onSubmit={(e) => void submit(e)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && onCancel) onCancel();
      }}
      noValidate
      aria-label={title}
    >
      <h2 className="panel__title">{title}</h2>
      <div className="grid-form">
        <TextField
          label="Name"
          value={draft.name}
          onChange={set('name')}
          error={errors.name}
          autoFocus={onCancel !== undefined}
        />
        <TextField
          label="Description"
          value={draft.description}
          onChange={set('description')}
          error={errors.description}
        />
        <TextField
          label="Price"
          inputMode="decimal"
          placeholder={amountInput(380)}
          value={draft.price}
          onChange={set('price')}
          error={errors.price}
        />
        <span className="row-actions">
          <Button type="submit" variant="primary" busy={busy}>
            {onCancel ? 'Save' : 'Add product'}
          </Button>
          {onCancel && (
            <Button variant="ghost" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </span>
      </div>
      {added && (
        <p className="muted" role="status" style={{ marginTop: 10, fontSize: 13 }}>
          {added}
        </p>
      )}
    </form>
  );
}
