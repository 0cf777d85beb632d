import type { LeadService } from '../../service';
import type { Route } from '../types';
import { alertRoutes } from './alerts';
import { connectionRoutes } from './connections';
import { entityRoutes } from './entities';
import { eventRoutes } from './events';
import { exportRoutes } from './exports';
import { feedbackRoutes } from './feedback';
import { firehoseRoutes } from './firehose';
import { flowRoutes } from './flows';
import { searchRoutes } from './search';
import { statsRoutes } from './stats';

/** Every built-in route, one module per capability. */
export function coreRoutes(service: LeadService): Route[] {
  return [
    ...entityRoutes(service),
    ...flowRoutes(service),
    ...firehoseRoutes(service),
    ...statsRoutes(service),
    ...searchRoutes(service),
    ...eventRoutes(service),
    ...feedbackRoutes(service),
    ...exportRoutes(service),
    ...alertRoutes(service),
    ...connectionRoutes(service),
  ];
}
