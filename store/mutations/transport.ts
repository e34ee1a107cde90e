import type { OrderActionRequest } from '../../domain/order-machine.ts';
import type { OrderDocument } from '../../domain/order.ts';

/**
 * Where workflow actions are carried out: the `order-action` function in production
 * (function-gateway.ts). Resolves with the updated order document; rejects with an `AppError`
 * (`ORDER_CONFLICT`, `INVALID_TRANSITION`, `FORBIDDEN`, … of PRODUCT.md §7).
 */
export interface OrderActionGateway {
  perform(request: OrderActionRequest): Promise<OrderDocument>;
}
