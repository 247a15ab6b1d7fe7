// Unit tests run outside the extension: the English messages answer t() (in node and jsdom environments alike).
import en from '../../public/_locales/en/messages.json';
import { useMessages } from '../../src/ui/i18n';

useMessages(en);
