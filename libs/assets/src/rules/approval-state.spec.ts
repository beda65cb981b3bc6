import { awaitsUploadApproval, hasPendingEdit, isApproved } from './approval-state';

describe('approval state', () => {
  it.each([
    // contentPending, pending edit row, expected
    [false, false, false],
    [true, false, true],
    [false, true, true],
    [true, true, true],
  ])('hasPendingEdit(contentPending %s, edit row %s) is %s', (contentPending, row, expected) => {
    expect(hasPendingEdit({ contentPending }, row)).toBe(expected);
  });

  it.each([
    // uploadPending, pendingEdit, expected
    [false, false, true],
    [true, false, false],
    [false, true, false],
    [true, true, false],
  ])('isApproved(uploadPending %s, pendingEdit %s) is %s', (uploadPending, pendingEdit, expected) => {
    expect(isApproved({ uploadPending }, pendingEdit)).toBe(expected);
  });

  it.each([
    // submitted, uploadPending, expected
    [false, false, false],
    [false, true, false],
    [true, false, false],
    [true, true, true],
  ])('awaitsUploadApproval(submitted %s, uploadPending %s) is %s', (submitted, uploadPending, expected) => {
    expect(awaitsUploadApproval({ submitted, uploadPending })).toBe(expected);
  });
});
