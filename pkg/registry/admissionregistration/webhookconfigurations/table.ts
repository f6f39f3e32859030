// `kubectl get mutatingwebhookconfigurations|validatingwebhookconfigurations`: NAME WEBHOOKS AGE.
import { column, humanAge, type TableConvertor } from '../../../runtime/table.js';

export const webhookConfigurationTable: TableConvertor = {
  columns: [
    column('Name', 'string', 'Name must be unique within a namespace.'),
    column('Webhooks', 'integer', 'Webhooks is a list of webhooks and the affected resources and operations.'),
    column('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
  ],
  cells: (obj) => [obj.metadata.name ?? '', Array.isArray(obj.webhooks) ? obj.webhooks.length : 0,
    humanAge(obj.metadata.creationTimestamp)],
};
