import { Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import {
  ApiErrors,
  ApiPaging,
  IdPipe,
  ListPaging,
  pagedList,
  Paging,
  PagingQuery,
  parseBoolean,
  XmlList,
  XmlRoot,
} from '@dam/http';
import type { Response } from 'express';
import { JOB_RUN_XML, JOB_XML, JobMapper, JobRepresentation, JobRunRepresentation } from './job.mapper';
import { JobsService } from './jobs.service';
import { JobRunSchema, JobSchema } from './jobs.api';

/** A job's runs: pages of 20 by default, at most 100. */
const RUN_PAGES: ListPaging = { pageSize: 20, maxPageSize: 100 };

/** DESIGN §10: maintenance jobs, their runs, and running one now. Admins and the application user only. */
@ApiTags('maintenance jobs')
@ApiBearerAuth()
@Controller('rest/admin/jobs')
export class JobsController {
  constructor(
    private readonly jobs: JobsService,
    private readonly mapper: JobMapper,
  ) {}

  @Get()
  @ApiOkResponse({ type: JobSchema, isArray: true })
  @XmlList('jobs', JOB_XML)
  async list(@Actor() actor: ActorUser): Promise<JobRepresentation[]> {
    return (await this.jobs.list(actor)).map((job) => this.mapper.toJob(job));
  }

  /** 202: the run is queued and goes on in the background; poll its Location. */
  @Post(':name/runs')
  @ApiAcceptedResponse({ description: 'Queued; `Location` is the run', type: JobRunSchema })
  @ApiQuery({
    name: 'dryRun',
    required: false,
    type: Boolean,
    description: 'examine and report only, change nothing',
  })
  @ApiErrors(409)
  @HttpCode(202)
  @XmlRoot(JOB_RUN_XML)
  async trigger(
    @Actor() actor: ActorUser,
    @Param('name') name: string,
    @Query('dryRun') rawDryRun: unknown,
    @Res({ passthrough: true }) response: Response,
  ): Promise<JobRunRepresentation> {
    const dryRun = parseBoolean(rawDryRun, 'dryRun') ?? false;
    const run = this.mapper.toRun(await this.jobs.trigger(actor, name, dryRun));
    response.location(run.url);
    return run;
  }

  /** Newest first; `page`/`pageSize` with X-Total-Count and Link, like the other lists. */
  @Get(':name/runs')
  @ApiPaging()
  @ApiOkResponse({ type: JobRunSchema, isArray: true })
  @XmlList('jobRuns', JOB_RUN_XML)
  async runs(
    @Actor() actor: ActorUser,
    @Param('name') name: string,
    @Query() query: PagingQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<JobRunRepresentation[]> {
    const load = (paging: Paging | undefined) => this.jobs.runs(actor, name, paging);
    const { runs, total } = await pagedList(query, response, this.mapper.runsUrl(name), load, RUN_PAGES);
    // Unpaged too: the runs kept are few, and the count tells how many.
    response.setHeader('X-Total-Count', String(total));
    return runs.map((run) => this.mapper.toRun(run));
  }

  @Get(':name/runs/:runId')
  @ApiOkResponse({ type: JobRunSchema })
  @XmlRoot(JOB_RUN_XML)
  async run(
    @Actor() actor: ActorUser,
    @Param('name') name: string,
    @Param('runId', new IdPipe('job run')) runId: number,
  ): Promise<JobRunRepresentation> {
    return this.mapper.toRun(await this.jobs.run(actor, name, runId));
  }
}
