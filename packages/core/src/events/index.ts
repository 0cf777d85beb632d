export {
  parseEventQuery,
  parseInstant,
  queryObject,
  type EventQuery,
  EVENTS_DEFAULT_LIMIT,
  EVENTS_MAX_LIMIT,
} from './query';
export { createEventRecorder, type EventObserver, type EventRecorder, type RecordingUnit } from './recorder';
export { createEventsApi, type EventsApi, toEventRecord } from './service';
export {
  EVENT_RETENTION_MS,
  EVENT_SCHEMA_VERSION,
  type EventCredential,
  type EventRecord,
  type EventType,
  HANDLER_VERSION,
  type Outcome,
  type StoredEvent,
} from '../domain/events';
export { project } from './project';
