/** A user as other code sees it: never the password hash. */
export interface User {
  id: number;
  username: string;
  emailAddress: string | null;
  forename: string | null;
  surname: string | null;
  isAdmin: boolean;
  isApplication: boolean;
  /** Ids of the groups the user belongs to, ascending. */
  groupIds: number[];
}
