// storage.k8s.io/v1 volumeattachments, with the status subresource.
import type { ResourceDef } from '../../rest/resource.js';
import { isPlainObject } from '../../../runtime/object.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { VolumeAttachmentStrategy } from './strategy.js';

const volumeAttachmentTable: TableConvertor = {
  columns: [
    nameColumn(),
    // Upstream declares the attacher column with the name format too.
    column('Attacher', 'string', 'attacher indicates the name of the volume driver that MUST handle this request. This is the name returned by GetPluginName().', { format: 'name' }),
    column('PV', 'string', 'persistentVolumeName represents the name of the persistent volume to attach.'),
    column('Node', 'string', 'nodeName represents the node that the volume should be attached to.'),
    column('Attached', 'boolean', 'attached indicates the volume is successfully attached. This field must only be set by the entity completing the attach operation, i.e. the external-attacher.'),
    ageColumn(),
  ],
  cells: (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    const source = isPlainObject(spec.source) ? spec.source : {};
    const status = isPlainObject(obj.status) ? obj.status : {};
    const str = (v: unknown): string => (typeof v === 'string' ? v : '');
    return [obj.metadata.name ?? '', str(spec.attacher), str(source.persistentVolumeName), str(spec.nodeName),
      status.attached === true, humanAge(obj.metadata.creationTimestamp)];
  },
};

export const volumeattachments: ResourceDef = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'VolumeAttachment',
  plural: 'volumeattachments',
  singular: 'volumeattachment',
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: [{ name: 'status', kind: 'VolumeAttachment', verbs: ['get', 'patch', 'update'] }],
  strategy: new VolumeAttachmentStrategy(),
  table: volumeAttachmentTable,
};
