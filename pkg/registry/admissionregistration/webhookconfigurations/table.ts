// `kubectl get mutatingwebhookconfigurations|validatingwebhookconfigurations`: NAME WEBHOOKS AGE.
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';

export const webhookConfigurationTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Webhooks', 'integer', 'Webhooks is a list of webhooks and the affected resources and operations.'),
    ageColumn(),
  ],
  cells: (obj) => [obj.metadata.name ?? '', Array.isArray(obj.webhooks) ? obj.webhooks.length : 0,
    humanAge(obj.metadata.creationTimestamp)],
};
