/**
 * Who a request acts for, once its token is found: the tenant of its transaction.
 */
import type { Scope } from './protocol.ts';

export interface Principal {
  userId: string;
  userName: string;
  /** A server administrator (the flag on the user); acts as one only with an `admin`-scoped token. */
  serverAdmin: boolean;
  tokenId: string;
  device: string;
  scopes: Scope[];
}

export const hasScope = (p: Principal, scope: Scope): boolean => p.scopes.includes(scope);
export const actsAsServerAdmin = (p: Principal): boolean => p.serverAdmin && hasScope(p, 'admin');
