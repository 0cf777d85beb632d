import type { LeadService } from '../../service';
import type { Route } from '../types';
import { entityRoutes } from './entities';
import { eventRoutes } from './events';
import { flowRoutes } from './flows';

/** Every built-in route, one module per capability. */
export function coreRoutes(service: LeadService): Route[] {
  return [...entityRoutes(service), ...flowRoutes(service), ...eventRoutes(service)];
}
