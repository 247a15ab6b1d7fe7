// Unit tests run outside the extension: the English messages answer t().
import { readFileSync } from 'node:fs';
import { useMessages } from '../../src/ui/i18n';
import type { MessageTable } from '../../src/ui/i18n';

useMessages(JSON.parse(readFileSync(new URL('../../public/_locales/en/messages.json', import.meta.url), 'utf8')) as MessageTable);
