import { spoolSuite } from '@leadroute/testkit/suites';
import { memorySpool } from './spool';

spoolSuite(() => ({ spool: memorySpool() }), 'memory');
