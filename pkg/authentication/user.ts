/** Who made a request, as every authenticator reports it and every authorizer reads it. */
export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const anonymousUser: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
