import { spoolSuite } from '../../../packages/testkit/src/spool-suite';
import { memorySpool } from './spool';

spoolSuite(() => ({ spool: memorySpool() }), 'memory');
