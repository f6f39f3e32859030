// `kubectl get endpointslices`: NAME ADDRESSTYPE PORTS ENDPOINTS AGE, three of each then "+ N more...".
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { arr } from '../../../apis/core/types.js';

const shown = 3;

/** upstream listWithMoreString. */
function withMore(all: string[]): string {
  if (all.length > shown) return `${all.slice(0, shown).join(',')} + ${all.length - shown} more...`;
  return all.length > 0 ? all.join(',') : '<unset>';
}

/** A port without a number is shown by name, or "*" for all ports. */
export const formatPorts = (ports: unknown): string => withMore(arr(ports).map((p) => {
  if (typeof p.port === 'number') return String(p.port);
  return typeof p.name === 'string' ? p.name : '*';
}));

export const formatAddresses = (endpoints: unknown): string =>
  withMore(arr(endpoints).flatMap((e) => (Array.isArray(e.addresses) ? e.addresses.map(String) : [])));

export const endpointSliceTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('AddressType', 'string', 'addressType specifies the type of address carried by this EndpointSlice.'),
    column('Ports', 'string', 'ports specifies the list of network ports exposed by each endpoint in this slice.'),
    column('Endpoints', 'string', 'endpoints is a list of unique endpoints in this slice.'),
    ageColumn(),
  ],
  cells: (obj) => [
    obj.metadata.name ?? '',
    typeof obj.addressType === 'string' ? obj.addressType : '',
    formatPorts(obj.ports),
    formatAddresses(obj.endpoints),
    humanAge(obj.metadata.creationTimestamp),
  ],
};
