/** Who made a request, as every authenticator reports it and every authorizer reads it. */
export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const anonymousUserName = 'system:anonymous';
export const allAuthenticated = 'system:authenticated';
export const allUnauthenticated = 'system:unauthenticated';

export const anonymousUser: UserInfo = { name: anonymousUserName, groups: [allUnauthenticated] };
