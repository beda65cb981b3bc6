import { StateConflict, UnknownResource } from '@dam/errors';

/** 404: no attribute of that id. */
export class AttributeNotFound extends UnknownResource {
  constructor(id: number) {
    super(`attribute ${id} does not exist`);
  }
}

/** 409: a sibling keyword has that name already (compared ignoring case). The name is quoted as given. */
export class DuplicateKeyword extends StateConflict {
  constructor(name: string) {
    super(`a keyword named ${name} already exists at this place in the tree`);
  }
}

/** 409: the attribute has that list value already (compared ignoring case). The value is quoted as given. */
export class DuplicateListValue extends StateConflict {
  constructor(value: string) {
    super(`the list value ${value} already exists for this attribute`);
  }
}
