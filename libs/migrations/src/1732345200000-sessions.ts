import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sessions that end (issue 36):
 * - `users.credential_generation`: raised whenever the user's sessions end (password change, revocation
 *   by an admin or the CLI); a signed URL names the generation it was signed under and fails once it moved.
 * - `oauth_tokens.session_expires_at`: when the login a token belongs to ends (DAM_REFRESH_TOKEN_MAX_DAYS
 *   after the password grant); rotating a refresh token never moves it. NULL for tokens issued before,
 *   whose rotation then never goes past their current expiry.
 *
 * Plain ADD COLUMN, which both databases run in place (SQLite without rebuilding `users`, which
 * `user_groups` references).
 */
export class Sessions1732345200000 implements MigrationInterface {
  name = 'Sessions1732345200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE users ADD COLUMN credential_generation integer NOT NULL DEFAULT 0');
    await queryRunner.query('ALTER TABLE oauth_tokens ADD COLUMN session_expires_at datetime NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE oauth_tokens DROP COLUMN session_expires_at');
    await queryRunner.query('ALTER TABLE users DROP COLUMN credential_generation');
  }
}
