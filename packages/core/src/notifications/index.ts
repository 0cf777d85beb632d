export { type AlertEmailFacts, type AlertMessageInput, alertMessage, alertTypeLabel } from './alert';
export { checkEmailMessage } from './check';
export { escapeHtml, oneLine, safeUrl } from './escape';
export {
  type ExportReadyFailed,
  type ExportReadyFinished,
  type ExportReadyInput,
  exportReadyMessage,
} from './export-ready';
export { formatTime } from './format';
