import { AppError } from '../../../domain/errors.ts';
import {
  decideOrderAction,
  type Actor,
  type OrderActionRequest,
} from '../../../domain/order-machine.ts';
import {
  orderFromDocument,
  orderToDocumentData,
  type OrderDocument,
} from '../../../domain/order.ts';
import type { OrderActionGateway } from '../../mutations/transport.ts';
import type { ManualClock, ModelServer } from './model-server.ts';

/**
 * `order-action` over the model server, for tests: decides with the same domain rule as the
 * real function, writes the order (its realtime event follows like any write) and answers the
 * document. With `hold`, answers wait for {@link release} so a test can look at the pending
 * state; `failWith` makes the next call fail with that error instead.
 */
export class ModelOrderGateway implements OrderActionGateway {
  readonly #server: ModelServer;
  readonly #clock: ManualClock;
  actor: Actor;
  hold = false;
  failWith: unknown = null;
  calls: OrderActionRequest[] = [];
  #held: (() => void)[] = [];

  constructor(server: ModelServer, clock: ManualClock, actor: Actor) {
    this.#server = server;
    this.#clock = clock;
    this.actor = actor;
  }

  /** Lets held calls answer. */
  release(): void {
    for (const resume of this.#held.splice(0)) resume();
  }

  async perform(request: OrderActionRequest): Promise<OrderDocument> {
    this.calls.push(request);
    if (this.hold) await new Promise<void>((resolve) => this.#held.push(resolve));
    const failure = this.failWith;
    this.failWith = null;
    if (failure) throw failure;
    const doc = this.#server.get('orders', request.orderId);
    if (!doc) throw new AppError('NOT_FOUND', 'This order does not exist.');
    const order = orderFromDocument(doc as unknown as OrderDocument);
    const decision = decideOrderAction(order, request, this.actor, this.#clock.now);
    if (decision instanceof AppError) throw decision;
    this.#server.write('orders', 'update', request.orderId, {
      ...orderToDocumentData(decision.patch),
    });
    this.#server.commitDue(true);
    return structuredClone(this.#server.get('orders', request.orderId)) as unknown as OrderDocument;
  }
}
