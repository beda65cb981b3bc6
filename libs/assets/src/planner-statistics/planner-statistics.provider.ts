import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { applyPlannerStatistics } from './sqlite-planner-statistics';

/** At boot, after the migrations: on SQLite, the search tables' reference statistics where there are none. */
@Injectable()
export class PlannerStatistics implements OnModuleInit {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await applyPlannerStatistics(this.dataSource);
  }
}
