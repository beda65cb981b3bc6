import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `lightbox_assets.added_at` keeps milliseconds on MariaDB too (DATETIME(3)), so contents added within
 * one second come back in the order they were added, as on SQLite, which stores the milliseconds in its
 * text; the asset id breaks a tie within one millisecond. MODIFY keeps the values (whole seconds before).
 */
export class LightboxAddedMilliseconds1732388400000 implements MigrationInterface {
  name = 'LightboxAddedMilliseconds1732388400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type !== 'mysql') return;
    await queryRunner.query('ALTER TABLE lightbox_assets MODIFY added_at DATETIME(3) NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type !== 'mysql') return;
    await queryRunner.query('ALTER TABLE lightbox_assets MODIFY added_at DATETIME NOT NULL');
  }
}
